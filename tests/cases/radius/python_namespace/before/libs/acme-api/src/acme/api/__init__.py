from acme.api.trace import Tracer
