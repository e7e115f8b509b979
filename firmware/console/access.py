# login, logout, passwd: the technician's PIN at the console (docs/console.md, "Login").
#
# A PIN is typed at its own prompt, echoed as "*", and never kept as evidence,
# written to the audit log nor reported: the line being handled is blanked
# before anything about it can be reported.
from firmware.console import auth as au
from firmware.link.journal import JournalError

# copies of firmware.events (tests/host/test_const_copies.py)
_CON_ACT_LOCKED = const(8)
_CON_ACT_LOCKOUT = const(3)
_CON_ACT_LOGIN = const(1)
_CON_ACT_LOGIN_FAILED = const(2)
_CON_ACT_LOGOUT = const(4)
_CON_ACT_PASSWD = const(6)
_CON_REFUSED = const(7)
_CON_USAGE = const(5)


def login(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: login (the PIN is asked for)")
    if con.auth.logged_in:
        return ["already logged in"]
    auth = con.auth
    left = auth.locked_for(con.auth_s())
    if left:
        if auth.locked_noted_s == auth.locked_until_s:     # this lockout's refusal is audited already
            return con.error(_CON_REFUSED, "console locked for %d s after wrong PINs" % left)
        failed = con.audit(_CON_ACT_LOCKED, left)
        if not failed:
            auth.locked_noted_s = auth.locked_until_s
        return failed or ["error: console locked for %d s after wrong PINs" % left]
    if con.pins is None or not con.pins.provisioned:
        why = con.pins.problem if con.pins is not None else "PIN record unavailable"
        return con.error(_CON_REFUSED, "login refused: %s (docs/console.md, \"PIN\")" % why)
    con.ask("PIN: ", True, _pin_typed)
    return []


def _pin_typed(con, pin):
    con._line = b""                      # a PIN is no evidence
    result = con.auth.check(pin, con.auth_s())
    if result == au.GRANTED:
        failed = con.audit(_CON_ACT_LOGIN)
        if failed:
            con.auth.logout()            # no login without its audit entry
            return failed
        return ["logged in (idle logout after %d min)" % (con.auth.idle_s // 60)]
    if result == au.WRONG:
        failed = con.audit(_CON_ACT_LOGIN_FAILED, con.auth.failures)
        return failed or ["error: wrong PIN"]
    if result == au.LOCKED_NOW:
        failed = con.audit(_CON_ACT_LOGIN_FAILED, au.LOCK_AFTER) or con.audit(_CON_ACT_LOCKOUT, con.auth.lock_s)
        return failed or ["error: wrong PIN: console locked for %d s" % con.auth.lock_s]
    if result == au.LOCKED:                 # locked while the PIN was being typed (cannot happen today)
        return ["error: console locked for %d s" % con.auth.locked_for(con.auth_s())]
    return con.error(_CON_REFUSED, "login refused: %s" % con.pins.problem)


def logout(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: logout")
    if not con.auth.logged_in:
        return ["not logged in"]
    con.auth.logout()
    con.change.discard()                 # values staged and not committed go with the login
    failed = con.audit(_CON_ACT_LOGOUT)
    return failed or ["logged out"]


def passwd(con, args):
    if args:
        return con.error(_CON_USAGE, "usage: passwd (the new PIN is asked for twice)")
    con.ask("new PIN: ", True, _new_pin)
    return []


def _new_pin(con, pin):
    con._line = b""
    from firmware.console.pins import check_pin      # the writing half: released when the line is done
    problem = check_pin(pin)
    if problem is not None:
        return con.error(_CON_REFUSED, "PIN not changed: " + problem)
    con.pending_pin = pin
    con.ask("new PIN again: ", True, _pin_again)
    return []


def _pin_again(con, pin):
    con._line = b""
    first, con.pending_pin = con.pending_pin, b""
    if pin != first:
        return con.error(_CON_REFUSED, "PIN not changed: the two PINs differ")
    failed = con.audit(_CON_ACT_PASSWD)
    if failed:
        return failed
    try:
        con.pins.set(pin)
    except (OSError, ValueError, JournalError) as exc:
        return con.error(_CON_REFUSED, "PIN not changed: %s" % exc)
    return ["PIN changed"]
