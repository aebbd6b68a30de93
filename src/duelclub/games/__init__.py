"""Pure rules core: one package per game, the shared contract and the fair random stream.

No I/O, no asyncio, no imports from the layers above (DESIGN.md §Layers).
"""
