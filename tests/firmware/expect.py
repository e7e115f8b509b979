# What pytest.raises gives, for tests that also run on MicroPython.


def raises(exc_type, func, *args, **kwargs):
    """Call func; fail unless it raises exc_type. Returns the exception."""
    try:
        func(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(func, "__name__", func), exc_type.__name__))


def raises_match(exc_type, text, func, *args, **kwargs):
    """As raises(), and the message must contain text."""
    exc = raises(exc_type, func, *args, **kwargs)
    message = str(exc)
    if text not in message:
        raise AssertionError("message %r does not mention %r" % (message, text))
    return exc
