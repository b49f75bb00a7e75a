from ..core import thing


def use():
    return thing()
