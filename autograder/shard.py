"""`python -m autograder.shard N`, the name the class workflow calls: see autograder/classroom/shard.py."""
from autograder.classroom.shard import main

if __name__ == "__main__": main()
