"""Viewer names: the lazily drawn pool gives exactly Faker's names for its seed, slot by slot."""

from __future__ import annotations

import pytest

from hat_env.sim.catalog import _faker
from hat_env.sim.names import NamePool, _fast_name


@pytest.mark.parametrize("locale", ["zh_CN", "en_US"])
def test_pool_names_are_fakers_names_for_the_seed(locale: str) -> None:
    assert _fast_name(locale) is not None  # the fast draw is in use for the built-in locales
    for seed in (0, 7, 123456, 2**32 - 1):
        fake = _faker(locale)
        fake.seed_instance(seed)
        expected = [fake.name() for _ in range(300)]
        pool = NamePool(locale, seed, 300)
        assert [pool[i] for i in range(300)] == expected


def test_pool_draws_only_up_to_the_slot_asked_for() -> None:
    pool = NamePool("en_US", 3, 256)
    assert pool.drawn == 0
    name = pool[9]
    assert pool.drawn == 10 and pool[9] == name
    with pytest.raises(IndexError):
        pool[256]


def test_two_pools_do_not_share_a_stream() -> None:
    """Pools drawn in turns give the names each gives alone (rooms built side by side stay seeded)."""
    a, b = NamePool("zh_CN", 1, 50), NamePool("zh_CN", 2, 50)
    mixed = [(a[i], b[i]) for i in range(50)]
    assert [x for x, _ in mixed] == [NamePool("zh_CN", 1, 50)[i] for i in range(50)]
    assert [y for _, y in mixed] == [NamePool("zh_CN", 2, 50)[i] for i in range(50)]
