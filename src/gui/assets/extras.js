// punct-gui page: what a player expects around the board.
