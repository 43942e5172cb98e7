print("examples")
