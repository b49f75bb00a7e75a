def test_core():
    pass
