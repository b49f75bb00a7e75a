from acme.api import trace
from acme.api.trace import Tracer
