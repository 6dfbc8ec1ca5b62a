import pytest
from autograder.cli import main
from toy_course import write_toy_course

@pytest.fixture
def course(tmp_path):
  """(solutions, projects) of the toy course with task headings and hint cells, released."""
  source = write_toy_course(tmp_path, hints=True)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  return source, projects
