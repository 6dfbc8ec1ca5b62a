"""Running a class: fetching each learner's work (`roster`), grading all of them in parallel or in shards
(`grade_all`, `shard`, `merge`), a regrade with what changed and why (`regrade`, `changes`, from the `fingerprints` of
what each grading was graded against), the gradebook with its late policy and overrides (`gradebook`, `late`), the item
analysis (`stats`), the LMS files (`lms`) and the similarity report (`similarity`); `commands` wires them."""
