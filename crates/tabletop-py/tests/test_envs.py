"""The environments pass their libraries' own checks; masks, seeds and errors."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import tabletop
import tabletop.envs
from tabletop.envs import VectorEnv, battleship_v0, long_nardy_v0, reversi_v0

AEC = [reversi_v0, long_nardy_v0, battleship_v0]


@pytest.mark.parametrize("module", AEC, ids=lambda m: m.__name__)
def test_pettingzoo_api(module):
    api_test(module.env(), num_cycles=500)
    api_test(module.raw_env(), num_cycles=200)


@pytest.mark.parametrize("module", AEC, ids=lambda m: m.__name__)
def test_pettingzoo_seed(module):
    seed_test(module.env, num_cycles=500)


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("tabletop/Reversi-v0", {"opponent_level": "greedy"}),
        ("tabletop/Reversi-v0", {"agent_color": "white"}),
        ("tabletop/LongNardy-v0", {"opponent_level": "random"}),
        ("tabletop/LongNardy-v0", {"opponent_level": "expert", "agent_color": "black", "scoring": "koks"}),
        ("tabletop/Battleship-v0", {"opponent_level": "posterior"}),
        ("tabletop/Sudoku-v0", {"difficulty": "easy"}),
    ],
)
def test_gymnasium_check_env(name, kwargs):
    env = gymnasium.make(name, **kwargs)
    check_env(env.unwrapped)


def play_random(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            trace.append((agent, reward))
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        trace.append((agent, a))
        env.step(a)
    return trace


def test_nardy_episode_is_a_function_of_the_seed():
    a = play_random(long_nardy_v0.env(), 11)
    b = play_random(long_nardy_v0.env(), 11)
    c = play_random(long_nardy_v0.env(), 12)
    assert a == b and a != c
    final = [r for _, r in a[-2:]]
    assert sorted(final)[0] == -sorted(final)[1] and abs(final[0]) in (1, 2)


def test_nardy_observation_encoding():
    env = long_nardy_v0.raw_env()
    env.reset(seed=3)
    mover = env.agent_selection
    obs = env.observe(mover)
    o = obs["observation"]
    assert o[23] == 15 and o[24 + 11] == 15  # own head (q=24), the opponent's head (q=12)
    assert o[56] == 1.0 and o[50:56].sum() in (2, 4)
    other = [a for a in env.agents if a != mover][0]
    assert env.observe(other)["action_mask"].sum() == 0
    legal = np.flatnonzero(obs["action_mask"])
    for a in legal:  # every legal action moves a checker off the head with an available die
        q, die = divmod(int(a), 6)
        assert q + 1 == 24 and o[50 + die] > 0


def test_illegal_actions_raise():
    env = reversi_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(tabletop.IllegalMoveError, match="action 0"):
        env.step(0)
    with pytest.raises(tabletop.IllegalMoveError, match="outside the action space"):
        env.step(99)
    env = long_nardy_v0.raw_env()
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(tabletop.IllegalMoveError, match="not legal"):
        env.step(bad)
    with pytest.raises(TypeError):
        env.step("24/18")
    env = battleship_v0.raw_env()
    env.reset(seed=0)
    env.step(0)
    if env.agent_selection == "player_0":
        with pytest.raises(tabletop.IllegalMoveError, match="already shot"):
            env.step(0)


def test_battleship_agents_see_only_their_own_knowledge():
    env = battleship_v0.raw_env()
    env.reset(seed=5)
    o0 = env.observe("player_0")["observation"]
    o1 = env.observe("player_1")["observation"]
    assert o0[:, :, 3].sum() == 20 and o1[:, :, 3].sum() == 20
    assert not (o0[:, :, 3] == o1[:, :, 3]).all()  # different fleets, each sees its own
    assert o0[:, :, :3].sum() == 0
    env.step(0)
    o0 = env.observe("player_0")["observation"]
    o1 = env.observe("player_1")["observation"]
    assert o0[0, 0, :3].sum() == 1 and o1[0, 0, 4] == 1 and o1[:, :, :3].sum() == 0


def test_gym_illegal_action_ends_the_episode():
    env = gymnasium.make("tabletop/Reversi-v0").unwrapped
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(0)
    assert terminated and reward == -1.0 and info["illegal_action"]


@pytest.mark.parametrize("game,n_actions", [("reversi", 65), ("long_nardy", 145)])
def test_vector_env(game, n_actions):
    def run(seed):
        v = VectorEnv(game, 8, seed=seed)
        obs, mask = v.observe()
        assert mask.shape == (8, n_actions)
        rng = np.random.default_rng(0)
        total = np.zeros(2)
        dones = 0
        for _ in range(400):
            scores = rng.random(mask.shape) * mask
            actions = scores.argmax(axis=1).astype(np.int64)
            obs, mask, rewards, done, to_move = v.step(actions)
            total += rewards.sum(axis=0)
            dones += int(done.sum())
        return obs, total, dones

    a, b = run(1), run(1)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all() and a[2] == b[2] > 0
    assert a[1][0] == -a[1][1]
    v = VectorEnv(game, 2)
    with pytest.raises(tabletop.IllegalMoveError, match="game 0"):
        v.step(np.array([n_actions + 5, 0], dtype=np.int64))


@pytest.mark.parametrize("game", ["reversi", "long_nardy"])
def test_vector_random_actions_are_legal_and_reproducible(game):
    def run():
        v = VectorEnv(game, 16, seed=5)
        trace = []
        for _ in range(300):
            _, mask = v.observe()
            actions = v.random_actions()
            assert mask[np.arange(16), actions].all()
            _, _, rewards, done, _ = v.step(actions)
            trace.append((actions.tolist(), rewards.tolist(), done.tolist()))
        return trace

    assert run() == run()
