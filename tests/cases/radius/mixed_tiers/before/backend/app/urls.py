from app import views
