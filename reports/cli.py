def register(sub):
    """Add the report commands (``verify``, ``certify``) to the ``slotcert`` parser."""
    from reports import verify

    verify.register(sub)
    try:
        from reports import certify_cmd

        certify_cmd.register(sub)
    except ImportError:
        pass
