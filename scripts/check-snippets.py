#!/usr/bin/env python3
"""Compiles the Swift snippets of Markdown files, as an app would write them, with warnings as errors.

Usage: scripts/check-snippets.py README.md docs/apps.md …

Each file becomes one executable target of a package made in a temporary folder that depends on this checkout
by path (products Flagstaff and FlagstaffTesting), in Swift 6 language mode with `-warnings-as-errors`: the first
```swift block is its main.swift (statements allowed), each later block another file of the same target
(declarations only; the types of earlier blocks are in scope). A block right after a line
`<!-- snippet: skip … -->` is left out (say why in the comment, e.g. SwiftUI, which does not exist here).
Exits non-zero, printing the compiler's errors against the Markdown line numbers, when a snippet does not compile.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def snippets(path):
    """The compiled ```swift blocks of a Markdown file: (first line number, text)."""
    lines = open(path, encoding='utf-8').read().split('\n')
    blocks, index, skip = [], 0, False
    while index < len(lines):
        line = lines[index]
        if re.match(r'\s*<!--\s*snippet:\s*skip\b', line):
            skip = True
        elif line.strip() == '```swift':
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != '```':
                end += 1
            if not skip:
                blocks.append((start + 1, '\n'.join(lines[start:end]) + '\n'))
            skip = False
            index = end
        elif line.strip():
            skip = skip and line.lstrip().startswith('<!--')
        index += 1
    return blocks


def target_name(path):
    return 'Snippets_' + re.sub(r'[^A-Za-z0-9]', '_', os.path.relpath(path, ROOT))


def main(paths):
    work = tempfile.mkdtemp(prefix='flagstaff-snippets-')
    targets, sources = [], {}
    for path in paths:
        name = target_name(path)
        blocks = snippets(path)
        if not blocks:
            continue
        os.makedirs(os.path.join(work, 'Sources', name))
        for number, (line, text) in enumerate(blocks):
            file = 'main.swift' if number == 0 else f'Snippet{number}.swift'
            with open(os.path.join(work, 'Sources', name, file), 'w', encoding='utf-8') as out:
                out.write(text)
            sources[(name, file)] = (path, line)
        targets.append(name)
    target_lines = ',\n'.join(
        f'        .executableTarget(name: "{name}", dependencies: [.product(name: "Flagstaff", package: "flagstaff"), '
        f'.product(name: "FlagstaffTesting", package: "flagstaff")], '
        f'swiftSettings: [.unsafeFlags(["-warnings-as-errors"])])' for name in targets)
    with open(os.path.join(work, 'Package.swift'), 'w', encoding='utf-8') as out:
        out.write(f'''// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "snippets",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "flagstaff", path: {ROOT!r})],
    targets: [
{target_lines}
    ]
)
'''.replace("'", '"'))
    scratch = os.environ.get('SNIPPETS_SCRATCH', os.path.join(ROOT, '.build-snippets'))
    result = subprocess.run(
        ['swift', 'build', '--package-path', work, '--scratch-path', scratch] + sum(
            (['--target', name] for name in targets), []),
        capture_output=True, text=True)
    output = result.stdout + result.stderr
    problems = []
    for match in re.finditer(r'^.*?/Sources/(\w+)/(\w+\.swift):(\d+):(\d+): (error|warning): (.*)$', output, re.M):
        name, file, line, column, kind, message = match.groups()
        path, first = sources.get((name, file), ('?', 0))
        problems.append(f'{os.path.relpath(path, ROOT)}:{first + int(line) - 1}:{column}: {kind}: {message}')
    if result.returncode != 0 or problems:
        print('\n'.join(sorted(set(problems))) or output)
        print(f'snippets: FAILED ({len(targets)} files; package in {work})')
        return 1
    print(f'snippets: {sum(1 for _ in sources)} snippets of {len(targets)} files compile with no warning')
    return 0


if __name__ == '__main__':
    sys.exit(main([os.path.abspath(p) for p in sys.argv[1:]]))
