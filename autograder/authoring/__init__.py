"""The author's tools: releasing the learner starters (`release`) and the learner repository (`export`,
with its own README, Makefile and workflow in `learner_repo/`), checking a module's tests (`lint`, `mutants` with
generated mutants from `mutagen`, reported by `mutation_report`), the machine check `doctor`, and the `canary` (the course
with another tinygrad release, in an environment of its own); `commands` wires them."""
