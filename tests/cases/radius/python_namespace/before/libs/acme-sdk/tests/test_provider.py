from acme.sdk.provider import Tracer
import trace
