from pkg.core import thing


def test_thing():
    assert thing() == 1
