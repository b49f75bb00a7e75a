print("dump")
