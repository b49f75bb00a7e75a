from gitcontext.cli.entry import run

run()
