def register(sub):
    """Add the report commands (``verify``, ``certify``, ``keygen``) to the ``slotcert`` parser."""
    from reports import signing, verify

    verify.register(sub)
    signing.register_keygen(sub)
    try:
        from reports import certify_cmd

        certify_cmd.register(sub)
    except ImportError:
        pass
