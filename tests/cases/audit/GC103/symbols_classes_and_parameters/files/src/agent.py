class BaseAgent:
    def run(self, prompt, timeout_s=30):
        pass


def load_config(path, strict=False):
    pass
