def render_page():
    pass
