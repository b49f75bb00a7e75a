def create_sandbox(kind):
    return kind
