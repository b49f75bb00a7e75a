def test_api():
    pass
