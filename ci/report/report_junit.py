# SPDX-License-Identifier: GPL-2.0
"""RESULTS_DIR/junit.xml: the matrix as JUnit XML.

One <testsuite name=KERNEL> per kernel, one <testcase classname=SUITE
name=TEST> per results.tsv row (TEST as in the text matrix). The verdict is
ci/report/report.py's, so the failure count equals its "M failed":
  result as expected, pass            plain testcase
  result as expected, skip            <skipped message="skip: detail"/>
  result as expected, fail/splat/...  passed testcase (the check passed)
                                      with <system-out>as expected: fail,
                                      expected fail: detail</system-out>
  anything else (unexpected)          <failure message="fail, expected
                                      pass: detail" type="fail">
No timings, so the same results always give the same bytes.
"""
import os
import re
import xml.etree.ElementTree as ET

import results


# Characters XML 1.0 cannot hold (console splats may carry some).
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def message(cell):
    text = f"{cell.result}, expected {cell.want}"
    return NOT_XML.sub("?", text + (f": {cell.detail}" if cell.detail else ""))


def testcase(parent, cell):
    case = ET.SubElement(parent, "testcase", classname=cell.suite,
                         name=NOT_XML.sub("?", cell.test))
    if cell.unexpected:
        ET.SubElement(case, "failure", message=message(cell),
                      type=cell.result).text = message(cell)
    elif cell.result == "skip":
        ET.SubElement(case, "skipped", message=message(cell))
    elif cell.result != "pass":
        ET.SubElement(case, "system-out").text = \
            "as expected: " + message(cell)
    return case


def junit(cells):
    root = ET.Element("testsuites", name="mncompat matrix",
                      tests=str(len(cells)),
                      failures=str(sum(c.unexpected for c in cells)),
                      errors="0")
    for kernel in results.ordered(c.kernel for c in cells):
        mine = [c for c in cells if c.kernel == kernel]
        suite = ET.SubElement(
            root, "testsuite", name=kernel, tests=str(len(mine)),
            failures=str(sum(c.unexpected for c in mine)), errors="0",
            skipped=str(sum(c.result == "skip" and not c.unexpected
                            for c in mine)))
        for cell in mine:
            testcase(suite, cell)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write(results_dir, cells):
    results.write_atomic(os.path.join(results_dir, "junit.xml"), junit(cells))
