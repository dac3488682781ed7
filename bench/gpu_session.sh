#!/usr/bin/env bash
# One lent GPU session's checks, as one prepared command (the device tool's `run`): the CUDA tests, then
# bench/gpu.py's step cost, then the fine-tuning step benchmark, each under its own time limit and each
# saving what it measured in $OUT as it goes. Ray (its wheel is over a call's 64 MiB) and MLflow are not
# needed by these three, so gpu.py's throughput part is not run here. Wheels of the packages the machine's
# image lacks or has at another version travel in .whl (a folder .git/info/exclude ignores; carried):
#   opacus==1.6.0 dp-accounting==0.6.0 dm-tree kymatio==0.3.0 transformers==5.24.0 peft==0.21.2 timm==1.0.31
# Publish here afterwards: python bench/gpu.py --publish FILE; finetune_step's section comes back whole.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH="$PWD:/tmp/site" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/card.txt"
timeout "${TESTS_S:-120}" python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py tests/test_randomness.py \
    tests/test_persample.py -k "cuda or gpu" 2>&1 | tail -25 | tee "$OUT/tests.txt"
timeout "${STEP_S:-170}" python3 bench/gpu.py --only step_cost --rounds 5 --json "$OUT/gpu_step.json" \
    2>&1 | grep -v Warning | tee "$OUT/gpu_step.log" | tail -5
cp bench/RESULTS.md "$OUT/RESULTS.md"
timeout "${FINETUNE_S:-200}" python3 bench/finetune_step.py --device cuda --repeats 5 --batch roberta=32 \
    --batch vit=256 --json "$OUT/finetune.json" --out "$OUT/RESULTS.md" 2>&1 | grep -v Warning | tee "$OUT/finetune.log" | tail -8
