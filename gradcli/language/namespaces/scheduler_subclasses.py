"""Classes a program derives from torch's lr schedulers: LRScheduler (and its old name
_LRScheduler) with the program's get_lr, or a scheduler such as StepLR with some methods
replaced. The base's __init__ sets up the scheduler and makes its first step through the
program's step and get_lr, as torch's does."""

from __future__ import annotations

from gradcli.engine import errors
from gradcli.language.namespaces.lr_scheduler import KINDS, Scheduler, SchedulerKind, options_of
from gradcli.language.namespaces.lr_scheduler_more import KINDS as MORE_KINDS
from gradcli.language.namespaces.one_cycle import ONE_CYCLE
from gradcli.language.runtime import classes
from gradcli.language.runtime.signatures import entry
from gradcli.language.runtime.values import iterate


def _abstract_get_lr(scheduler, ctx):
    raise errors.TorchError("NotImplementedError", "")


BASE = SchedulerKind("LRScheduler", "last_epoch=-1", _abstract_get_lr)
OLD_BASE = SchedulerKind("_LRScheduler", "last_epoch=-1", _abstract_get_lr)


class UserScheduler(classes.UserInstance, Scheduler):
    """An instance of a program's scheduler class: torch's attributes and its own, then the
    program's methods, then the base class's."""

    __slots__ = ("cls",)

    def __init__(self, cls, kind: SchedulerKind):
        self.cls, self.kind, self.optimizer, self.attrs = cls, kind, None, {}

    def attribute(self, name: str):
        if name in self.attrs or name in self.PROPERTIES:
            return Scheduler.attribute(self, name)
        defined = self.cls.find(name)
        if defined is not classes.MISSING:
            return classes.bind(defined, self, self.cls)
        return Scheduler.attribute(self, name)

    def base_attribute(self, name: str):
        return Scheduler.attribute(self, name)

    def set_attribute(self, name: str, value) -> None:
        if not classes.set_property(self.cls, self, name, value):
            self.attrs[name] = value

    def _own(self, ctx, name: str):
        """The program's method `name`, called, else None (when the class does not define it)."""
        method = self.cls.find(name)
        if method is classes.MISSING:
            return None
        return ctx.call(classes.bind(method, self, self.cls), [], {})

    def first_step(self, ctx) -> None:
        if self.cls.find("step") is classes.MISSING:
            super().first_step(ctx)
        else:
            self._own(ctx, "step")

    def next_lrs(self, ctx):
        if self.cls.find("get_lr") is classes.MISSING:
            return super().next_lrs(ctx)
        return iterate(self._own(ctx, "get_lr"))

    def closed_form_lrs(self, ctx):
        if self.cls.find("_get_closed_form_lr") is not classes.MISSING:
            return iterate(self._own(ctx, "_get_closed_form_lr"))
        if self.kind.closed_form is not None:
            return self.kind.closed_form(self)
        return self.next_lrs(ctx)

    def repr(self, printer) -> str:
        method = self.cls.find("__repr__")
        if method is classes.MISSING:
            return f"<{self.cls.module}.{self.cls.qualname} object at 0x{id(self):x}>"
        return classes.text_of(self.cls.runtime.call(classes.bind(method, self, self.cls), [],
                                                     {}), "__repr__")


def _class_init(kind: SchedulerKind):
    """The scheduler class's __init__ for a program's subclass."""
    def init(ctx, scheduler, optimizer, *values) -> None:
        if not isinstance(scheduler, UserScheduler) or scheduler.kind is not kind:
            raise errors.type_error("super(type, obj): obj must be an instance or subtype of "
                                    "type")
        scheduler.start(ctx, optimizer, *options_of(kind, optimizer, values))
    return entry("__init__", init, "self, optimizer, " + kind.options, context=True,
                 qualname=f"{'LRScheduler' if kind is OLD_BASE else kind.name}.__init__")


for _kind in (BASE, OLD_BASE, *KINDS, *MORE_KINDS, ONE_CYCLE):
    classes.BASE_INSTANCES[_kind.type] = lambda cls, args, kind=_kind: UserScheduler(cls, kind)
    classes.BASE_INITS[_kind.type] = _class_init(_kind)
    classes.BASE_INIT_INHERITED.add(_kind.type)

SCHEDULER_BASES = {"LRScheduler": BASE.type, "_LRScheduler": OLD_BASE.type}
