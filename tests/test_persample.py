"""Both clipped-sum engines against an obviously correct batch-of-one ("microbatch") reference, for every
layer type of the ghost engine on each of its paths (ghost norm, per-sample gradient formed), chunked
physical batches, per-sample momentum (k > 1) and non-finite signals; and the ghost engine's check
before training (a weight used outside its layer: ``auto`` takes vmap, ``ghost`` is refused)."""

from __future__ import annotations

import copy
import gc
import math
import weakref
from typing import ClassVar

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from dptune.base.errors import InputError
from dptune.engine.engine_choice import check_inputs, clipped_sum_engine, ghost_check
from dptune.engine.layer_grads import ConvOuter, LinearOuter, OneHot, ghost_is_cheaper
from dptune.engine.persample import Chooser, FlatModel, GhostEngine, VmapEngine, ghost_supported
from dptune.models import build_model

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def reference_clipped_sum(
    model: nn.Module,
    iterates: list[torch.Tensor],
    weights: list[float],
    x: torch.Tensor,
    y: torch.Tensor,
    clip: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Σ_i clip(Σ_j w_j ∇f_i(θ_j), C) by looping over samples with plain autograd; also the norms."""
    replicas = []
    for theta in iterates:
        replica = copy.deepcopy(model)
        torch.nn.utils.vector_to_parameters(theta, replica.parameters())
        replicas.append(replica)
    total, norms = torch.zeros_like(iterates[0]), []
    for i in range(x.shape[0]):
        v = torch.zeros_like(iterates[0])
        for w, replica in zip(weights, replicas, strict=True):
            loss = F.cross_entropy(replica(x[i : i + 1]), y[i : i + 1])
            grads = torch.autograd.grad(loss, list(replica.parameters()))
            v += w * torch.cat([g.reshape(-1) for g in grads])
        norms.append(v.norm())
        total += v * min(1.0, clip / float(v.norm()))
    return total, torch.stack(norms)


class SequenceLinear(nn.Module):
    """Linear layers on [b, tokens, d] inputs plus a dilated conv: the engines' less common paths."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=2, dilation=2)
        self.mix = nn.Linear(8, 6)
        self.head = nn.Linear(6 * 32, 10, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.conv(x)).reshape(x.shape[0], 32, 8)
        return self.head(torch.tanh(self.mix(h)).reshape(x.shape[0], -1))


class InPlace(nn.Module):
    """Outputs changed in place after the traced layers (a conv's and a GroupNorm's), as torchvision's
    ResNets do with ``ReLU(inplace=True)`` and ``out += identity``."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.norm = nn.GroupNorm(2, 4)
        self.head = nn.Linear(4 * 8 * 8, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu_(self.conv(x))
        out = self.norm(h)
        out += h
        return self.head(torch.tanh_(out).reshape(x.shape[0], -1))


CASES = [
    ("cnn5", 1, 28, "ghost"),
    ("cnn5", 1, 28, "vmap"),
    ("cnn5", 3, 32, "ghost"),
    ("mlp", 1, 8, "ghost"),
    ("mlp", 1, 8, "vmap"),
    ("vit", 1, 28, "vmap"),
    pytest.param("resnet18", 3, 16, "vmap", marks=pytest.mark.slow),
    pytest.param("resnet18", 3, 16, "ghost", marks=pytest.mark.slow),
    ("wrn16-4", 3, 16, "ghost"),
    ("sequence", 1, 8, "ghost"),
    ("inplace", 1, 8, "ghost"),
]


@pytest.mark.parametrize(("name", "channels", "size", "engine"), CASES)
@pytest.mark.parametrize("weights", [[1.0], [0.6, 0.3, 0.1]])
def test_engine_matches_microbatch_reference(
    name: str, channels: int, size: int, engine: str, weights: list[float]
) -> None:
    torch.manual_seed(0)
    custom = {"sequence": SequenceLinear, "inplace": InPlace}
    model = (
        custom[name]() if name in custom else build_model(name, {}, torch.zeros(2, channels, size, size), 10)
    )
    model = model.double()  # float64 on both sides: the comparison is of the math, not of rounding
    flat = FlatModel(model)
    batch = 3 if name in ("resnet18", "wrn16-4") else 7
    x = torch.randn(batch, channels, size, size, dtype=torch.float64)
    y = torch.randint(0, 10, (batch,))
    base = flat.flatten()
    iterates = [base + 0.05 * j * torch.randn_like(base) for j in range(len(weights))]
    expected, norms = reference_clipped_sum(model, iterates, weights, x, y, clip=1.0)
    clip = float(norms.median())  # some samples clipped, some not
    expected, _ = reference_clipped_sum(model, iterates, weights, x, y, clip)
    engines = {"ghost": GhostEngine, "vmap": VmapEngine}
    result = engines[engine](flat, physical_batch_size=4).clipped_sum(
        iterates, torch.tensor(weights, dtype=torch.float64), x, y, clip
    )
    torch.testing.assert_close(result, expected, rtol=1e-9, atol=1e-11)


class Signals(nn.Module):
    """Conv1d from few input channels, with 260 positions (formed by the sample-grouped convolution's
    backward pass), dilated (by im2col); LayerNorm over the length, GroupNorm: [b, 2, 520] → 10."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv1d(2, 5, 3, stride=2, padding=1)
        self.norm = nn.LayerNorm(260)
        self.wide = nn.Conv1d(5, 6, 3, padding=1)
        self.group = nn.GroupNorm(2, 6)
        self.dilated = nn.Conv1d(6, 4, 2, stride=4, dilation=2)
        self.head = nn.Linear(4 * 65, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.group(torch.tanh(self.wide(self.norm(torch.tanh(self.stem(x))))))
        return self.head(torch.tanh(self.dilated(h)).flatten(1))


class Tokens(nn.Module):
    """Embedding with a padding token and a second one of the same ids (the two share their input),
    LayerNorm, a Linear on [b, tokens, d], mean over tokens, Linear."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(11, 6, padding_idx=0)
        self.also = nn.Embedding(11, 6)
        self.norm = nn.LayerNorm(6)
        self.mix = nn.Linear(6, 5)
        self.head = nn.Linear(5, 10)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        embedded = self.embed(ids) + torch.tanh(self.also(ids))
        return self.head(torch.tanh(self.mix(self.norm(embedded))).mean(dim=1))


class Images(nn.Module):
    """Conv2d from few input channels (formed by a grouped convolution), from many (by im2col), dilated;
    GroupNorm; Linear: [b, 2, 8, 8] → 10."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(2, 6, 3, stride=2, padding=1)
        self.wide = nn.Conv2d(6, 4, 2)
        self.dilated = nn.Conv2d(4, 3, 2, padding=1, dilation=2, bias=False)
        self.group = nn.GroupNorm(3, 3)
        self.head = nn.Linear(27, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.dilated(torch.tanh(self.wide(torch.tanh(self.stem(x))))))
        return self.head(self.group(h).flatten(1))


class SharedInputs(nn.Module):
    """Weights that read one input, whose Gram matrix and scaled copy the ghost engine makes once: two
    convolutions of the image with one geometry (a third with another), and an attention's query, key
    and value on the first one's positions (input width 4 ≤ 3 + 3 + 5 of output: the input is scaled
    for the clip factors); the head reads its input alone (width 12 > 10: its output gradients are
    scaled): [b, 2, 6, 6] → 10."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.twin = nn.Conv2d(2, 4, 3, padding=1, bias=False)
        self.strided = nn.Conv2d(2, 3, 3, stride=2, padding=1)
        self.query, self.key, self.value = nn.Linear(4, 3), nn.Linear(4, 3), nn.Linear(4, 5)
        self.head = nn.Linear(5 + 4 + 3, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tokens = torch.tanh(self.conv(x)).flatten(2).transpose(1, 2)  # [b, 36, 4]
        attention = torch.softmax(self.query(tokens) @ self.key(tokens).transpose(1, 2), dim=-1)
        pooled = [
            (attention @ self.value(tokens)).mean(dim=1),
            torch.tanh(self.twin(x)).mean(dim=(2, 3)),
            torch.tanh(self.strided(x)).mean(dim=(2, 3)),
        ]
        return self.head(torch.cat(pooled, dim=1))


LAYER_MODELS: dict[str, type[nn.Module]] = {
    "signals": Signals,
    "tokens": Tokens,
    "images": Images,
    "shared": SharedInputs,
}


def layer_batch(name: str, batch: int) -> tuple[nn.Module, torch.Tensor]:
    """A small float64 model of every layer type, and inputs for it (token ids: some repeated, some the
    padding token)."""
    model = LAYER_MODELS[name]().double()
    if name == "tokens":
        return model, torch.randint(0, 11, (batch, 7))
    shape = {"signals": (2, 520), "images": (2, 8, 8), "shared": (2, 6, 6)}[name]
    return model, torch.randn(batch, *shape, dtype=torch.float64)


CHOOSERS: dict[str, Chooser] = {
    "by cost": ghost_is_cheaper,
    "ghost": lambda weight, terms: True,
    "formed": lambda weight, terms: False,
}


CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here; run on a GPU machine")


@pytest.mark.parametrize("name", list(LAYER_MODELS))
@pytest.mark.parametrize("path", list(CHOOSERS))
@pytest.mark.parametrize("weights", [[1.0], [0.6, 0.3, 0.1]])
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=CUDA)])
def test_every_layer_type_on_each_path_matches_the_reference(
    name: str, path: str, weights: list[float], device: str
) -> None:
    """Seven samples in physical chunks of three (3 + 3 + 1), clip at the median norm; the engine on
    ``device`` (CUDA forms a wide convolution's gradients by im2col, a CPU by sample groups), the
    reference on the CPU, both in float64."""
    torch.manual_seed(0)
    model, x = layer_batch(name, 7)
    y = torch.randint(0, 10, (7,))
    base = FlatModel(model).flatten()
    iterates = [base + 0.1 * j * torch.randn_like(base) for j in range(len(weights))]
    _, norms = reference_clipped_sum(model, iterates, weights, x, y, clip=1.0)
    clip = float(norms.median())
    expected, _ = reference_clipped_sum(model, iterates, weights, x, y, clip)
    engine = GhostEngine(FlatModel(model.to(device)), physical_batch_size=3, choose=CHOOSERS[path])
    on_device = [theta.to(device) for theta in iterates]
    w = torch.tensor(weights, dtype=torch.float64)
    result = engine.clipped_sum(on_device, w, x.to(device), y.to(device), clip)
    torch.testing.assert_close(result.cpu(), expected, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", ["signals", "images", "shared"])
@pytest.mark.parametrize("engine", ["vmap", *CHOOSERS])
def test_non_finite_signals_are_left_out(name: str, engine: str) -> None:
    """A NaN and an infinite record: the clipped sum is the reference's over the other records, and both
    are counted."""
    torch.manual_seed(0)
    model, x = layer_batch(name, 6)
    y = torch.randint(0, 10, (6,))
    x[1], x[4] = math.nan, math.inf
    flat = FlatModel(model)
    iterates, weights = [flat.flatten()], [1.0]
    rest = torch.tensor([0, 2, 3, 5])
    expected, _ = reference_clipped_sum(model, iterates, weights, x[rest], y[rest], 0.5)
    made = VmapEngine(flat, 4) if engine == "vmap" else GhostEngine(flat, 4, choose=CHOOSERS[engine])
    result = made.clipped_sum(iterates, torch.tensor(weights, dtype=torch.float64), x, y, 0.5)
    torch.testing.assert_close(result, expected, rtol=1e-9, atol=1e-11)
    assert made.nonfinite == 2


@pytest.mark.parametrize(
    ("name", "terms", "grams"), [("shared", 1, 4), ("shared", 3, 14), ("tokens", 1, 3), ("tokens", 3, 13)]
)
def test_weights_that_read_one_input_make_its_gram_once(
    name: str, terms: int, grams: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every weight on the ghost path: one input Gram per input and pair of iterates, not per weight.
    ``SharedInputs``: {conv, twin}, {strided} read the image, the same at every iterate (one term each);
    {query, key, value} and {head} read activations, which differ between k iterates (k(k+1)/2 pairs
    each): 1 + 1 + 1 + 1 = 4 Grams at k = 1 (7 one per weight), 1 + 1 + 6 + 6 = 14 at k = 3 (27).
    ``Tokens``: {embed, also} read the ids (one term), mix and head activations: 3 at k = 1 (4), 1 + 6 + 6
    = 13 at k = 3 (14)."""
    calls = []
    for kind in (LinearOuter, ConvOuter, OneHot):
        original = kind.input_gram
        monkeypatch.setattr(
            kind, "input_gram", lambda self, other, f=original: calls.append(self) or f(self, other)
        )
    model, x = layer_batch(name, 4)
    flat = FlatModel(model)
    iterates = [flat.flatten() + 0.1 * j for j in range(terms)]
    engine = GhostEngine(flat, physical_batch_size=4, choose=CHOOSERS["ghost"])
    weights = torch.full((terms,), 1.0 / terms, dtype=torch.float64)
    engine.clipped_sum(iterates, weights, x, torch.zeros(4, dtype=torch.long), 1.0)
    assert len(calls) == grams


def test_the_cheaper_path_by_bu_mao_and_xu() -> None:
    """Ghost norm T²(d + p) per pair of terms against T·d·p per term formed: d = 4, p = 5."""
    for positions, terms, ghost in [(1, 1, True), (2, 1, True), (3, 1, False), (2, 2, False)]:
        weight = LinearOuter(torch.zeros(1, positions, 4), torch.zeros(1, positions, 5))
        assert ghost_is_cheaper(weight, terms) == ghost


def test_an_embedding_too_large_to_form_takes_the_ghost_norm() -> None:
    """DP-PMLF's five terms on an embedding of 8,192 tokens × 128: forming costs fewer multiply-adds
    (5·(64 + 8192)·128 against 15·64²·129), so two samples form it; 512 samples would hold
    5·512·8192·128 float32 numbers formed (10 GiB) against 15·2·512·64² (252 MiB) of Gram matrices."""
    for batch, ghost in [(2, False), (512, True)]:
        ids = torch.zeros(batch, 64, dtype=torch.long)
        weight = OneHot(ids, torch.zeros(batch, 64, 128), 8192)
        assert 15 * weight.ghost_cost > 5 * weight.instantiation_cost
        assert ghost_is_cheaper(weight, 5) == ghost


class Shared(nn.Module):
    """One Linear applied twice (its per-sample gradient sums over both calls)."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(torch.tanh(self.layer(x)))


class Standardised(nn.Linear):
    """A Linear whose output uses W − mean(W): its gradient is not the plain g aᵀ."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight - self.weight.mean(), self.bias)


def test_ghost_support_detection() -> None:
    assert ghost_supported(build_model("cnn5", {}, torch.zeros(2, 1, 28, 28), 10))
    assert not ghost_supported(build_model("vit", {}, torch.zeros(2, 1, 28, 28), 10))  # class token
    assert ghost_supported(build_model("resnet18", {}, torch.zeros(2, 3, 32, 32), 10))  # GroupNorm
    assert ghost_supported(build_model("wrn16-4", {}, torch.zeros(2, 3, 32, 32), 10))
    assert ghost_supported(Signals()) and ghost_supported(Tokens()) and ghost_supported(Images())
    assert not ghost_supported(nn.Embedding(5, 3, scale_grad_by_freq=True))  # mixes the samples
    assert not ghost_supported(nn.Conv2d(4, 4, 3, groups=2))
    assert not ghost_supported(Standardised(3, 2))  # a subclass is not its base
    tied = nn.Sequential(nn.Embedding(5, 3), nn.Linear(3, 5, bias=False))
    tied[1].weight = tied[0].weight
    assert not ghost_supported(tied)
    vit = FlatModel(build_model("vit", {}, torch.zeros(2, 1, 28, 28), 10))
    with pytest.raises(ValueError, match=r"nn\.Linear, nn\.Conv1d, nn\.Conv2d, nn\.Embedding"):
        GhostEngine(vit, 8)
    assert isinstance(clipped_sum_engine(vit, 8), VmapEngine)  # auto falls back
    assert isinstance(clipped_sum_engine(FlatModel(Tokens()), 8), GhostEngine)
    with pytest.raises(ValueError, match="more than once"):
        model = Shared()
        GhostEngine(FlatModel(model), 8).clipped_sum(
            [FlatModel(model).flatten()],
            torch.ones(1),
            torch.randn(3, 4),
            torch.zeros(3, dtype=torch.long),
            1.0,
        )


def test_batchnorm_is_refused() -> None:
    with pytest.raises(ValueError, match="BatchNorm"):
        FlatModel(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)))


class TiedHead(nn.Module):
    """Token ids → Embedding → Linear → mean → scores against the embedding itself (a tied output head:
    the embedding's weight is also read outside its layer)."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.mix = nn.Linear(6, 6)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return F.linear(torch.tanh(self.mix(self.embed(ids))).mean(dim=1), self.embed.weight)


class FunctionalWeight(nn.Module):
    """A Linear whose weight is also used by a functional call after it."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(5, 5)
        self.head = nn.Linear(5, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.fc(x))
        return self.head(torch.tanh(F.linear(h, self.fc.weight)))


def outside_use(name: str, batch: int) -> tuple[nn.Module, torch.Tensor]:
    """A float64 model that reads a supported layer's weight outside that layer, and inputs for it."""
    if name == "tied":
        return TiedHead().double(), torch.randint(0, 10, (batch, 4))
    return FunctionalWeight().double(), torch.randn(batch, 5, dtype=torch.float64)


@pytest.mark.parametrize("name", ["tied", "functional"])
def test_a_weight_used_outside_its_layer_makes_auto_take_vmap_and_ghost_refused(name: str) -> None:
    """The ghost engine alone leaves the outside use out (its clipped sum is wrong); its check finds that
    on two synthetic inputs: ``auto`` takes vmap, whose clipped sum is the reference's, and ``ghost``
    is refused in one line naming ``engine`` and the fix."""
    torch.manual_seed(0)
    model, x = outside_use(name, 6)
    y = torch.randint(0, 10, (6,))
    flat = FlatModel(model)
    iterates, weights = [flat.flatten()], torch.ones(1, dtype=torch.float64)
    _, norms = reference_clipped_sum(model, iterates, [1.0], x, y, clip=1.0)
    clip = float(norms.median())
    expected, _ = reference_clipped_sum(model, iterates, [1.0], x, y, clip)
    unchecked = GhostEngine(flat, 4).clipped_sum(iterates, weights, x, y, clip)
    assert not torch.allclose(unchecked, expected, rtol=1e-3, atol=1e-6)  # the hole the check closes
    example = check_inputs(x, 10)
    assert ghost_check(model, *example) is not None
    chosen = clipped_sum_engine(flat, 4, "auto", example)
    assert isinstance(chosen, VmapEngine) and chosen.choice.startswith("vmap (auto: the ghost engine failed")
    torch.testing.assert_close(
        chosen.clipped_sum(iterates, weights, x, y, clip), expected, rtol=1e-9, atol=1e-11
    )
    with pytest.raises(InputError) as refused:
        clipped_sum_engine(flat, 4, "ghost", example)
    message = str(refused.value)
    assert message.startswith("engine: ghost is wrong for this model") and "\n" not in message
    assert message.endswith("use vmap, or keep each parameter inside its own layer")
    assert isinstance(clipped_sum_engine(flat, 4, "vmap", example), VmapEngine)


@pytest.mark.parametrize(
    ("name", "shape"),
    [("mlp", (1, 8, 8)), ("cnn5", (1, 28, 28)), ("cnn5", (3, 32, 32)), ("wrn16-4", (3, 16, 16))],
)
def test_built_in_models_pass_the_check_and_keep_ghost(name: str, shape: tuple[int, ...]) -> None:
    """In float32, as training builds them; the check draws no global random number."""
    torch.manual_seed(0)
    like = torch.zeros(2, *shape)
    model = build_model(name, {}, like, 10)
    before = torch.random.get_rng_state()
    chosen = clipped_sum_engine(FlatModel(model), 8, "auto", check_inputs(like, 10))
    assert torch.equal(torch.random.get_rng_state(), before)
    assert isinstance(chosen, GhostEngine)
    assert chosen.choice == "ghost (auto: every parameter in a supported layer, checked against autograd)"
    assert isinstance(clipped_sum_engine(FlatModel(model), 8, "ghost", check_inputs(like, 10)), GhostEngine)
    assert next(model.parameters()).dtype == torch.float32  # the check ran on a float64 copy


@pytest.mark.parametrize("name", ["signals", "tokens", "images"])
def test_every_layer_type_passes_the_check(name: str) -> None:
    model, x = layer_batch(name, 2)
    assert ghost_check(model, *check_inputs(x, 10)) is None
    assert ghost_check(model.float(), *check_inputs(x.float() if name != "tokens" else x, 10)) is None


def test_a_layer_run_twice_makes_auto_take_vmap() -> None:
    model = Shared()
    chosen = clipped_sum_engine(FlatModel(model), 8, "auto", check_inputs(torch.zeros(2, 4), 4))
    assert isinstance(chosen, VmapEngine) and "more than once" in chosen.choice


class CastsToFloat32(nn.Module):
    """Casts its input to float32 (its float64 copy does not run) and reads its weight outside its layer
    when ``tied``."""

    def __init__(self, tied: bool) -> None:
        super().__init__()
        self.fc = nn.Linear(5, 5)
        self.head = nn.Linear(5, 10)
        self.tied = tied

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.fc(x.float()))
        return self.head(torch.tanh(F.linear(h, self.fc.weight) if self.tied else h))


@pytest.mark.parametrize("tied", [False, True])
def test_a_model_that_will_not_run_in_float64_is_checked_in_its_own_dtype(tied: bool) -> None:
    example = check_inputs(torch.zeros(2, 5), 10)
    chosen = clipped_sum_engine(FlatModel(CastsToFloat32(tied)), 8, "auto", example)
    assert isinstance(chosen, VmapEngine if tied else GhostEngine)
    assert ("in torch.float32" in chosen.choice) == tied


class Float64DoesNotFit(nn.Module):
    """Runs out of (GPU) memory in float64, as a large model's float64 copy does on a small share; its
    own-dtype forward records how many float64 copies of it are still alive."""

    alive: ClassVar[list[int]] = []
    copies: ClassVar[weakref.WeakSet[nn.Module]] = weakref.WeakSet()

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(5, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype == torch.float64:
            Float64DoesNotFit.copies.add(self)
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        gc.collect()
        Float64DoesNotFit.alive.append(len(Float64DoesNotFit.copies))
        return self.fc(x)


def test_a_float64_copy_that_does_not_fit_is_freed_and_the_check_runs_in_the_models_own_dtype() -> None:
    """The check falls back to the model's own dtype only once the float64 copy it could not run is
    gone (a GPU holds one model, not the model and a float64 copy beside it)."""
    Float64DoesNotFit.alive.clear()
    assert ghost_check(Float64DoesNotFit(), *check_inputs(torch.zeros(2, 5), 10)) is None
    assert Float64DoesNotFit.alive and set(Float64DoesNotFit.alive) == {0}
