from app.models import User


def get():
    return User()
