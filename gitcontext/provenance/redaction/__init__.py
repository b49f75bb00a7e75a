"""The redactor's classes of secret: key blocks, vendor formats, transport credentials, assigned secrets."""
