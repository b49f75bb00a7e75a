class Tracer:
    def start(self):
        return 1
