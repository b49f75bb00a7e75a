def connect():
    pass
