class User:
    pass


class Model0:
    field = 0


class Model1:
    field = 1


class Model2:
    field = 2


class Model3:
    field = 3


class Model4:
    field = 4


class Model5:
    field = 5


class Model6:
    field = 6


class Model7:
    field = 7


class Model8:
    field = 8


class Model9:
    field = 9


class Model10:
    field = 10


class Model11:
    field = 11


class Model12:
    field = 12


class Model13:
    field = 13


class Model14:
    field = 14
