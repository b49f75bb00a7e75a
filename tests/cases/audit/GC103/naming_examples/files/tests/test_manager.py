def test_it():
    pass
