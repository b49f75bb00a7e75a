class User:
    pass
