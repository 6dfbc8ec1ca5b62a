# For instructors who use nbgrader directly: the source notebooks live in solutions/, releases go to projects/.
# `autograder release` does the same and also clears solution regions in starter scripts (nbgrader copies those as is).
c = get_config()  # noqa: F821
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "projects"
c.CourseDirectory.ignore = [".ipynb_checkpoints", "__pycache__", "*.pyc"]
