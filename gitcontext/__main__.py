import sys

from gitcontext.cli.entry import main

sys.exit(main())
