import pkg.b
from pkg.sub import a
