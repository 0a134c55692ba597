def register(sub):
    """Add the report commands (``verify``, ``certify``, ``keygen``) to the ``slotcert`` parser."""
    from reports import certify_cmd, signing, verify

    verify.register(sub)
    signing.register_keygen(sub)
    certify_cmd.register(sub)
