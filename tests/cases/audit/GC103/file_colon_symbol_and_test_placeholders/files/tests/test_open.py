def test_opens():
    assert True
