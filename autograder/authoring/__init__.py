"""The author's tools: releasing the learner starters (`release`) and the learner repository (`export`,
with its own README, Makefile and workflow in `learner_repo/`), checking a module's tests (`lint`, `mutants` with
generated mutants from `mutagen`, reported by `mutation_report`), and the machine check `doctor`; `commands` wires them."""
