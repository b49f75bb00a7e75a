module.exports = { hello: () => "hello" };
