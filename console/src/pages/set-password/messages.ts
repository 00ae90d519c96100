export const setPasswordMessages = {
  en: {
    title: 'Set your password',
    for: 'For {{name}} ({{email}}). This link is valid until {{at}} and works once.',
    rules:
      'Rules: at least 12 characters, and hard to guess: not a commonly used password (the service checks it against a list of known ones), not a repeated character or a sequence, not your email or name. A passphrase of a few unrelated words is easy to remember and hard to guess.',
    password: 'New password',
    confirm: 'New password again',
    submit: 'Set password',
    noToken: 'This address has no link in it. Open the whole link you were sent.',
    linkNotFound:
      'This link cannot be used: it was already used, it expired (links last 24 hours) or it never existed. Ask an admin for a new one.',
    rejected: 'The service refused this password:',
    failed: 'The password was not set: {{message}}',
    toSignIn: 'Go to sign-in',
  },
  'pt-BR': {
    title: 'Defina sua senha',
    for: 'Para {{name}} ({{email}}). Este link vale até {{at}} e funciona uma vez.',
    rules:
      'Regras: pelo menos 12 caracteres, e difícil de adivinhar: nem uma senha comum (o serviço confere uma lista de senhas conhecidas), nem um caractere repetido ou uma sequência, nem seu e-mail ou nome. Uma frase de algumas palavras sem relação entre si é fácil de lembrar e difícil de adivinhar.',
    password: 'Nova senha',
    confirm: 'Nova senha de novo',
    submit: 'Definir senha',
    noToken: 'Este endereço não traz o link. Abra o link inteiro que você recebeu.',
    linkNotFound:
      'Este link não pode ser usado: já foi usado, expirou (os links valem 24 horas) ou nunca existiu. Peça um novo a um administrador.',
    rejected: 'O serviço recusou esta senha:',
    failed: 'A senha não foi definida: {{message}}',
    toSignIn: 'Ir para a entrada',
  },
};
