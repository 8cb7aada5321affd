"""Masked PPO on penguin_gym/Penguin-v3, in the style of CleanRL's ppo.py (one file, PyTorch).

    pip install ./python torch
    python python/examples/ppo_masked.py --total-timesteps 500000

Illegal actions get a logit of -1e8 from ``info["action_mask"]``, so the policy only ever samples
legal moves. The vector environment resets in SAME_STEP mode: when an episode ends on a step,
``obs`` already shows the next deal and the last observation is in ``info["final_obs"]``; a
truncated episode is bootstrapped from the value of that final observation.

Training deals are seeds from 1,000,000 up (the project's training range). At the end the greedy
policy (the most probable legal action) plays deals ``--eval-seed`` … ``--eval-seed +
--eval-deals - 1`` with a move limit of 1000, the deals and limit of ``penguin eval --seed 1
--deals 1000``, and prints the win rate with its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from dataclasses import asdict, dataclass, fields

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn

import penguin_gym  # noqa: F401  (registers the ids)


@dataclass
class Args:
    env_id: str = "penguin_gym/Penguin-v3"
    """the environment id"""
    seed: int = 1
    """seed of torch, numpy and the training deals (deal seeds start at 1,000,000 + seed)"""
    total_timesteps: int = 500_000
    """environment steps to train for"""
    learning_rate: float = 2.5e-4
    """Adam's learning rate (annealed linearly to 0)"""
    num_envs: int = 64
    """sub-environments in the vector env (one engine process, one round trip per step)"""
    num_steps: int = 128
    """steps per sub-env per rollout"""
    max_steps: int = 200
    """episode move limit while training (truncation)"""
    gamma: float = 0.99
    """discount"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    num_minibatches: int = 8
    """minibatches per rollout"""
    update_epochs: int = 4
    """epochs over each rollout"""
    clip_coef: float = 0.2
    """PPO's ratio clip"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clip"""
    hidden: int = 256
    """units per hidden layer"""
    eval_seed: int = 1
    """first evaluation deal (seeds below 100,000 are for evaluation only)"""
    eval_deals: int = 1000
    """evaluation deals"""
    eval_envs: int = 50
    """sub-environments while evaluating"""
    eval_sample: bool = False
    """evaluate by sampling from the policy (seeded) instead of taking its most probable action"""
    load: str = ""
    """start from these weights (an agent.pt); with --total-timesteps 0, only evaluate them"""
    threads: int = 1
    """torch CPU threads (one is fastest for this small network on a shared machine)"""
    out: str = ""
    """folder for args.json, the final weights and eval.json (none when empty)"""


def parse_args() -> Args:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for f in fields(Args):
        flag = f"--{f.name.replace('_', '-')}"
        if isinstance(f.default, bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default)
        else:
            p.add_argument(flag, type=type(f.default), default=f.default)
    return Args(**vars(p.parse_args()))


def layer(i: int, o: int, std: float = math.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_size: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, 1, 1.0)
        )
        self.actor = nn.Sequential(
            layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(), layer(hidden, n_actions, 0.01)
        )

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def dist(self, x: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(x).masked_fill(~mask, -1e8)
        return torch.distributions.Categorical(logits=logits)


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def evaluate(agent: Agent, args: Args) -> dict:
    """Plays deals eval_seed … eval_seed + eval_deals - 1, each once (move limit 1000): the most
    probable legal action, or with eval_sample a sampled one (torch generator seeded by seed)."""
    n = min(args.eval_envs, args.eval_deals)
    envs = gym.make_vec(args.env_id, num_envs=n, max_steps=1000)
    last = args.eval_seed + args.eval_deals - 1
    results: dict[int, bool] = {}
    obs, info = envs.reset(seed=args.eval_seed)  # sub-env i plays seed + i, seed + i + n, ...
    gen = torch.Generator().manual_seed(args.seed)
    with torch.no_grad():
        while len(results) < args.eval_deals:
            mask = torch.as_tensor(info["action_mask"] == 1)
            logits = agent.actor(torch.as_tensor(obs)).masked_fill(~mask, -1e8)
            if args.eval_sample:
                action = torch.multinomial(torch.softmax(logits, -1), 1, generator=gen).squeeze(-1)
            else:
                action = logits.argmax(-1)
            obs, _, term, trunc, info = envs.step(action.numpy())
            for i in np.flatnonzero(term | trunc):
                seed = int(info["final_info"]["seed"][i])
                if seed <= last:
                    results[seed] = bool(info["final_info"]["won"][i])
    envs.close()
    wins = sum(results.values())
    low, high = wilson(wins, len(results))
    return {"deals": f"{args.eval_seed}-{last}", "policy": "sample" if args.eval_sample else "argmax",
            "n": len(results), "wins": wins, "win_rate": wins / len(results), "wilson95": [low, high]}


def main() -> None:
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "args.json"), "w") as f:
            json.dump(asdict(args), f, indent=1)
    envs = gym.make_vec(args.env_id, num_envs=args.num_envs, max_steps=args.max_steps)
    obs_size = envs.single_observation_space.shape[0]
    n_actions = envs.single_action_space.n
    agent = Agent(obs_size, n_actions, args.hidden)
    if args.load:
        agent.load_state_dict(torch.load(args.load))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    N, T = args.num_envs, args.num_steps
    batch = N * T
    obs_b = torch.zeros((T, N, obs_size))
    mask_b = torch.zeros((T, N, n_actions), dtype=torch.bool)
    act_b = torch.zeros((T, N), dtype=torch.long)
    logp_b = torch.zeros((T, N))
    rew_b = torch.zeros((T, N))
    done_b = torch.zeros((T, N))
    val_b = torch.zeros((T, N))

    next_obs, info = envs.reset(seed=1_000_000 + args.seed)
    next_obs = torch.as_tensor(next_obs)
    next_mask = torch.as_tensor(info["action_mask"] == 1)
    updates = args.total_timesteps // batch
    ended_returns: list[float] = []
    ended_wins: list[bool] = []
    t0 = time.time()
    for update in range(1, updates + 1):
        for g in optimizer.param_groups:
            g["lr"] = (1.0 - (update - 1.0) / updates) * args.learning_rate
        for t in range(T):
            obs_b[t], mask_b[t] = next_obs, next_mask
            with torch.no_grad():
                d = agent.dist(next_obs, next_mask)
                action = d.sample()
                logp_b[t], val_b[t] = d.log_prob(action), agent.value(next_obs)
            act_b[t] = action
            o, r, term, trunc, info = envs.step(action.numpy())
            reward = torch.as_tensor(r, dtype=torch.float32)
            ended = term | trunc
            if trunc.any():  # bootstrap cut-off episodes from their last observation's value
                final = torch.as_tensor(np.stack([info["final_obs"][i] for i in np.flatnonzero(trunc)]))
                with torch.no_grad():
                    reward[torch.as_tensor(trunc)] += args.gamma * agent.value(final)
            for i in np.flatnonzero(ended):
                ended_returns.append(float(info["final_info"]["episode_return"][i]))
                ended_wins.append(bool(info["final_info"]["won"][i]))
            rew_b[t] = reward
            done_b[t] = torch.as_tensor(ended, dtype=torch.float32)
            next_obs = torch.as_tensor(o)
            next_mask = torch.as_tensor(info["action_mask"] == 1)

        with torch.no_grad():  # GAE; done_b[t] = the episode ended on step t
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_b)
            last = torch.zeros(N)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else val_b[t + 1]
                nonterminal = 1.0 - done_b[t]
                delta = rew_b[t] + args.gamma * nv * nonterminal - val_b[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + val_b

        b_obs, b_mask = obs_b.reshape(batch, obs_size), mask_b.reshape(batch, n_actions)
        b_act, b_logp = act_b.reshape(batch), logp_b.reshape(batch)
        b_adv, b_ret, b_val = adv.reshape(batch), ret.reshape(batch), val_b.reshape(batch)
        mb = batch // args.num_minibatches
        for _ in range(args.update_epochs):
            perm = torch.randperm(batch)
            for start in range(0, batch, mb):
                idx = perm[start : start + mb]
                d = agent.dist(b_obs[idx], b_mask[idx])
                logratio = d.log_prob(b_act[idx]) - b_logp[idx]
                ratio = logratio.exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v = agent.value(b_obs[idx])
                v_loss = 0.5 * ((v - b_ret[idx]) ** 2).mean()
                loss = pg - args.ent_coef * d.entropy().mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = slice(-200, None)
        print(
            f"update {update}/{updates} steps {update * batch} "
            f"return {np.mean(ended_returns[recent]) if ended_returns else 0:.3f} "
            f"won {np.mean(ended_wins[recent]) if ended_wins else 0:.3f} "
            f"({update * batch / (time.time() - t0):.0f} steps/s)",
            flush=True,
        )
    envs.close()
    result = evaluate(agent, args)
    print(
        f"eval deals {result['deals']} ({result['policy']}): {result['wins']}/{result['n']} won, "
        f"{100 * result['win_rate']:.1f} % [{100 * result['wilson95'][0]:.1f}-{100 * result['wilson95'][1]:.1f}]"
    )
    if args.out:
        torch.save(agent.state_dict(), os.path.join(args.out, "agent.pt"))
        with open(os.path.join(args.out, f"eval-{result['policy']}.json"), "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
