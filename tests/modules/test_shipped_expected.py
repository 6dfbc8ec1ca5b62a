"""No visible check expects a value computed from the learner's own answers in a form release cuts: the learner's copy
ships the reference's value in its place, and a right answer whose value differs from the reference's (a layout of
another height, another exporter's file, the last bits of another CPU) fails its self-check. Module 10's Task 5.3a
lost a point to a check of this kind; 05's draw_uop_graph, 10's export_onnx and test_ship, and 13's export_c could
(this test found them on 2026-12-04; on those versions of the notebooks it fails). Write such a check as a property
of the learner's values with a constant expected value (`check_equal(diff, 0)`, `[...] == []`), or list it below with
why a right answer has one value there. Grading, too, compares every check with the reference run's expected value,
shown or cut, visible or hidden (module 12's measure_decode lost a learner 3 points so): the second list is for that."""
import pytest
from nbformat import read
from autograder.core.course import REPO, module_names, notebook_path
from expected_flow import expected_from_answers

SOLUTIONS = REPO / "solutions"

RENDERER = "through gpu_renderer's renderer (Task 5.1): tinygrad's own programs for the one right renderer"
ONE_VALUE = {
  ("08_cuda_benchmark", "test_gpu_renderer"): RENDERER, ("08_cuda_benchmark", "test_kernel_bound"): RENDERER,
  ("08_cuda_benchmark", "test_read_ptx"): RENDERER,
  ("08_cuda_benchmark", "test_anatomy"): RENDERER + "; NOT one value in grading: the anatomy of best_access's own opts is "
    "compared with the reference's opts' anatomy (a right search that picks other opts loses it): to mend, stop 60's note",
  ("08_cuda_benchmark", "test_sweep"): "a row's intensity from its n and dtype, checked equal to the cases just above",
  ("10_inference", "test_choose_format"): "the rows of the exact formats (f16, f32, Q8_0 bit for bit, int8 as PyTorch's quantizer); the "
    "choices read the learner's Q4_0 row too, at budgets far from every format's error (a coarse Q4_0 within Task 5.1's 1% chose the same)",
  ("10_inference", "test_export_onnx"): "the docstring fixes every exporter option but where the weights go; the dynamo "
    "exporter with external_data=False keeps the same entries (tests/modules/test_right_variants.py grades it)",
  ("10_inference", "test_quantize_onnx"): "the float file onnx_by_hand wrote from the checkpoint: its weights are the checkpoint's",
  ("11_memory_devices", "test_data_parallel_step"): "one device's step: floats compared within rtol 1e-5, as against PyTorch just above",
  ("11_memory_devices", "test_memory_report"): "PyTorch's outputs of the same function",
  ("11_memory_devices", "test_schedule_counts"): "counts of the learner's schedule, checked equal to tinygrad's just above",
  ("11_memory_devices", "test_shard_plan"): "bytes held and moved, exact, checked equal to tinygrad's just above",
  ("12_llm_inference", "test_memory_bound_share"): "decode_traffic's count of bytes (exact) and a scripted clock",
}

# grading compares every check, shown or cut, visible or hidden, with the reference run's value: these cells too
SHARED_CACHE = "BEAM's choice on the grading machine, whose search cache the learner's run shares with the reference run"
ONE_VALUE_IN_GRADING = {**ONE_VALUE,
  ("02_op_types", "test_kernel_sources"): "one type per kernel: the number of kernels is checked against tinygrad's schedule",
  ("04_mnist", "test_batch_source"): "the batches of one epoch: their total length is fixed by `indices` and the batch size",
  ("04_mnist", "test_beam_compare"): SHARED_CACHE,
  ("04_mnist", "test_load_checkpoint"): "the learner's Net class itself (a type check)",
  ("04_mnist", "test_smallest_delta"): "the names of the delta in state-dict order: the delta is checked against the oracle's",
  ("05_compiler_pipeline", "test_compile_timed"): SHARED_CACHE,
  ("05_compiler_pipeline", "test_kernel_parts"): "each kernel's buffers, checked against the C source's just above",
  ("10_inference", "test_predict_classes"): "the float Net's classes, by the learner's own predict_classes (argmax of one model)",
  ("11_memory_devices", "test_buffer_lifetimes"): "one row per buffer of the schedule, checked against tinygrad's",
  ("12_llm_inference", "test_choose_quantized"): "the plans, unique by the docstring's tie-break, checked against all 256 run in transformers",
  ("12_llm_inference", "test_decode_traffic"): "byte counts, checked exactly against the model's tensors",
  ("12_llm_inference", "test_make_cache"): "one entry per layer of the model",
}

def found(module:str, grading:bool=False) -> list[tuple[str, str]]:
  return expected_from_answers(read(notebook_path(SOLUTIONS, module), as_version=4), grading)

SCOPES = {"self-check": (ONE_VALUE, False, "release replaces by the reference's"),
          "grading": (ONE_VALUE_IN_GRADING, True, "grading takes from the reference run")}

@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("module", module_names(SOLUTIONS))
def test_no_check_expects_the_reference_value_of_a_computation_on_the_learners_answers(module, scope):
  listed, grading, who = SCOPES[scope]
  unexplained = [f"{cell}: expected {source[:100]}" for cell, source in found(module, grading) if (module, cell) not in listed]
  assert not unexplained, f"{module}: checks whose expected value, computed from the learner's answers, {who}:\n" + "\n".join(unexplained)

def test_the_lists_hold_no_cell_that_no_longer_needs_it():
  for listed, grading, _ in SCOPES.values():
    named = {(m, cell) for m in module_names(SOLUTIONS) for cell, _ in found(m, grading)}
    assert not set(listed) - named, set(listed) - named
