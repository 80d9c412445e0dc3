"""What the CLI tests share: a small law and a question it answers."""

LAW = """# Lei 14.300

XI - microgeração distribuída: central geradora de energia elétrica, com potência instalada menor ou igual a 75 kW (setenta e cinco quilowatts), conectada na rede de distribuição;

XIII - minigeração distribuída: central geradora com potência instalada maior que 75 kW e menor ou igual a 5 MW para as fontes despacháveis;
"""
QUESTION = "Quais são os limites de potência instalada da microgeração distribuída?"
