def register(sub):
    from reports import verify
    verify.register(sub)
    try:
        from reports import certify_cmd
        certify_cmd.register(sub)
    except ImportError:
        pass
