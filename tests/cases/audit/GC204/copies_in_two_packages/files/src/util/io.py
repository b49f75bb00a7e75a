def read_all():
    pass
