#!/usr/bin/env python3
"""Hosts of a SimGrid platform file, for scripts/simulate.sh.

platform_hosts.py PLATFORM.xml          one line per core, host by host in file
                                        order (mpirun --map-by core placement)
platform_hosts.py --speed PLATFORM.xml  the first host's speed in flop/s
platform_hosts.py --profile PLATFORM.xml the machine profile the platform names
                                        (property mmbench_profile, resolved from
                                        the platform's folder) and its sha256,
                                        on one line; nothing if none
Understands <host id= speed= core=> and <cluster prefix= radical= suffix=
speed= core=> (radical: "0-31" or "0-3,8,10-11").
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

UNITS = {"": 1, "f": 1, "kf": 1e3, "mf": 1e6, "gf": 1e9, "tf": 1e12, "pf": 1e15}


def flops(text):
    first = text.split(",")[0].strip()  # pstates: the first is the default
    m = re.fullmatch(r"([0-9.eE+-]+)\s*([kKmMgGtTpP]?[fF]?)(?:lops)?", first)
    if not m:
        raise SystemExit(f"platform_hosts.py: cannot read speed '{text}'")
    return float(m.group(1)) * UNITS[m.group(2).lower()]


def radical(text):
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            yield from range(int(a), int(b) + 1)
        else:
            yield int(part)


def hosts(path):
    """(name, cores, speed) in file order."""
    out = []
    for el in ET.parse(path).getroot().iter():
        if el.tag == "host":
            out.append((el.get("id"), int(el.get("core", "1")), flops(el.get("speed"))))
        elif el.tag == "cluster":
            for i in radical(el.get("radical")):
                out.append((f"{el.get('prefix', '')}{i}{el.get('suffix', '')}", int(el.get("core", "1")),
                            flops(el.get("speed"))))
    return out


def profile(path):
    """(profile path, sha256) a platform from platform_from_profile.py names, or None."""
    props = {el.get("id"): el.get("value") for el in ET.parse(path).getroot().iter("prop")}
    ref = props.get("mmbench_profile")
    if not ref:
        return None
    if not os.path.isabs(ref):
        ref = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), ref))
    return ref, props.get("mmbench_profile_sha256", "")


def main(argv):
    if len(argv) == 3 and argv[1] == "--speed":
        print(f"{hosts(argv[2])[0][2]:.6g}")
    elif len(argv) == 3 and argv[1] == "--profile":
        named = profile(argv[2])
        if named:
            print(f"{named[0]} {named[1]}")
    elif len(argv) == 2:
        for name, cores, _ in hosts(argv[1]):
            for _ in range(cores):
                print(name)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
