# expect: 3:5: error: 'await' outside async function
def main():
    await run()
