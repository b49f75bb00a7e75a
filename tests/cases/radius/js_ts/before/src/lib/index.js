module.exports = { hello: () => "hi" };
