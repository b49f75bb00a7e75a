console.log('migrate')
