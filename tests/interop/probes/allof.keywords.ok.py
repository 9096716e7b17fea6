# The keys an allOf merges (a $ref and more properties) are keyword parameters.
async def main() -> None:
    await tools.create_user(name="Ada", password="correct horse battery")
    await tools.create_user(name="Ada", age=36, password="correct horse battery")
