import sys

from gitcontext.cli.main import main

sys.exit(main())
