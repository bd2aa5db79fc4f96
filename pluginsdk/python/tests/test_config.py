"""The dataclass configuration: the items derived from it match what the
Go SDK derives from the same declaration with struct tags, and a
configuration decodes into it."""

from dataclasses import dataclass

import pytest

from edged_plugin import Item, SouthPlugin, decode, item, items_of


@dataclass
class Config:
    asset: str = item("Asset code", default="csv", display_name="Asset", mandatory=True, length=255)
    rate: int = item("Rows per second", default=1, display_name="Rate", minimum=1, maximum=10000)
    scale: float = item("Factor", default=0.5)
    loop: bool = item("Start over", default=True, validity='rate == "1"')
    mode: str = item("Mode", default="b", options=["a", "b", "c"], order=9)
    secret: str = item("Password", type="password")
    rules: list = item("Rules", default=[])
    count: int = item("Optional count")
    not_an_item: int = 0


def test_items_of():
    # The same items edgeplugin.ItemsOf derives from sampleConfig in
    # pluginsdk/go/edgeplugin/schema_test.go.
    assert items_of(Config) == {
        "asset": Item("Asset code", type="string", default="csv", display_name="Asset", order="1", length="255", mandatory="true"),
        "rate": Item("Rows per second", type="integer", default="1", display_name="Rate", order="2", minimum="1", maximum="10000"),
        "scale": Item("Factor", type="float", default="0.5", order="3"),
        "loop": Item("Start over", type="boolean", default="true", order="4", validity='rate == "1"'),
        "mode": Item("Mode", type="enumeration", options=["a", "b", "c"], default="b", order="9"),
        "secret": Item("Password", type="password", order="6"),
        "rules": Item("Rules", type="JSON", default="[]", order="7"),
        "count": Item("Optional count", type="integer", order="8"),
    }


@pytest.mark.parametrize(
    "config, want",
    [
        pytest.param({}, Config(), id="defaults"),
        pytest.param(
            {"asset": "a/b", "rate": "20", "scale": "-1e3", "loop": "false", "mode": "c", "secret": "s3cret",
             "rules": '[{"asset": "x"}]', "count": "7"},
            Config(asset="a/b", rate=20, scale=-1000.0, loop=False, mode="c", secret="s3cret", rules=[{"asset": "x"}], count=7),
            id="values",
        ),
        pytest.param({"count": ""}, Config(), id="an empty optional number"),
    ],
)
def test_decode(config, want):
    assert decode(Config, config) == want


@pytest.mark.parametrize(
    "config, message",
    [
        pytest.param({"rate": "fast"}, "item 'rate'", id="not an integer"),
        pytest.param({"loop": "yes"}, "item 'loop'", id="not a boolean"),
        pytest.param({"rules": "[1,"}, "item 'rules'", id="not JSON"),
    ],
)
def test_decode_refuses(config, message):
    with pytest.raises(ValueError, match=message):
        decode(Config, config)


def test_plugin_with_config_class():
    class P(SouthPlugin):
        name, version = "p", "1.0.0"
        config_class = Config

    p = P()
    assert set(p.items) == {"asset", "rate", "scale", "loop", "mode", "secret", "rules", "count"}
    p.start("svc", {"rate": "5"}, None)
    assert p.settings.rate == 5 and p.settings.asset == "csv"
    with pytest.raises(ValueError):
        p.reconfigure({"rate": "x"})
    assert p.settings.rate == 5


def test_malformed():
    @dataclass
    class NoDescription:
        a: str = item("")

    with pytest.raises(ValueError):
        items_of(NoDescription)


def test_item_to_pb_carries_every_attribute():
    # The contract's Item carries every attribute the gateway's items have;
    # the Python SDK sent only some before.
    pb = Item("Asset", default="a", length="10", mandatory="true", readonly="true", validity='x == "1"').to_pb("asset")
    assert (pb.length, pb.mandatory, pb.readonly, pb.validity) == ("10", "true", "true", 'x == "1"')
    assert pb.display_name == "asset" and pb.order == "1"
