# The two commands: `make grade` (set up, then grade projects/ against the hidden tests) and `make test`.
VENV := .venv/bin
export DEV ?= CPU
# JupyterLab's port: the dev container (.devcontainer/devcontainer.json) forwards this one
LAB_PORT ?= 8888

.PHONY: setup grade test test-fast lab docs release report doctor
setup:
	@bash scripts/setup.sh

grade: setup
	$(VENV)/autograder grade $(ARGS)

test: setup
	$(VENV)/python -m pytest -n 2 --dist worksteal --durations=40 tests $(ARGS)

# The loop of a grader change: unit tests and the toy course, no real module graded (under 2 minutes on 2 cores).
test-fast: setup
	$(VENV)/python -m pytest -n 2 --dist worksteal --durations=5 -m "not slow" tests $(ARGS)

lab: setup
	$(VENV)/jupyter lab projects --port=$(LAB_PORT)

docs: setup
	$(VENV)/mkdocs build --strict

release: setup
	$(VENV)/autograder release

report: setup
	$(VENV)/autograder grade --json score.json --markdown score.md

doctor: setup
	$(VENV)/autograder doctor
